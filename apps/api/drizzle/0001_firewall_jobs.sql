CREATE TABLE "job_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"job_id" text NOT NULL,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"ok" boolean,
	"output" jsonb,
	"error" text
);
--> statement-breakpoint
DROP INDEX "firewall_entries_owner_idx";--> statement-breakpoint
ALTER TABLE "firewall_entries" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
CREATE INDEX "job_runs_queue_idx" ON "job_runs" USING btree ("queue","started_at");--> statement-breakpoint
CREATE INDEX "job_runs_job_idx" ON "job_runs" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "firewall_entries_owner_ip_idx" ON "firewall_entries" USING btree ("owner_id","ip");