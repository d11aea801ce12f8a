CREATE TABLE "dataviewer_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"dataviewer_id" integer NOT NULL,
	"created_by_id" integer NOT NULL,
	"frequency" text NOT NULL,
	"weekday" smallint,
	"month_day" smallint,
	"time_of_day" text NOT NULL,
	"timezone" text NOT NULL,
	"range_preset" text NOT NULL,
	"format" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"claimed_by" text,
	"last_run_at" timestamp with time zone,
	"last_status" text,
	"last_rows" integer,
	"last_error" text,
	"last_range" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dataviewer_schedules" ADD CONSTRAINT "dataviewer_schedules_dataviewer_id_dataviewers_id_fk" FOREIGN KEY ("dataviewer_id") REFERENCES "public"."dataviewers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataviewer_schedules" ADD CONSTRAINT "dataviewer_schedules_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataviewer_schedules_dataviewer_idx" ON "dataviewer_schedules" USING btree ("dataviewer_id");--> statement-breakpoint
CREATE INDEX "dataviewer_schedules_due_idx" ON "dataviewer_schedules" USING btree ("next_run_at") WHERE "dataviewer_schedules"."enabled";