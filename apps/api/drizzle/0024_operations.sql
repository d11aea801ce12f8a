CREATE TABLE "discrepancy_figures" (
	"request_id" integer NOT NULL,
	"day" date NOT NULL,
	"network_id" integer NOT NULL,
	"impressions" bigint NOT NULL,
	"revenue" numeric(18, 6) NOT NULL,
	CONSTRAINT "discrepancy_figures_request_id_day_network_id_pk" PRIMARY KEY("request_id","day","network_id")
);
--> statement-breakpoint
CREATE TABLE "discrepancy_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"idem_key" text NOT NULL,
	"date" date NOT NULL,
	"from_date" date NOT NULL,
	"month" text NOT NULL,
	"network_ids" jsonb NOT NULL,
	"source" text NOT NULL,
	"file_name" text,
	"tolerance_pct" numeric(5, 2) NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"days_done" integer DEFAULT 0 NOT NULL,
	"days_total" integer NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"apply_result" jsonb,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"applied_by" integer,
	"applied_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discrepancy_rows" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"day" date NOT NULL,
	"network_id" integer NOT NULL,
	"currency" text NOT NULL,
	"ours_impressions" bigint NOT NULL,
	"theirs_impressions" bigint NOT NULL,
	"impressions_delta_pct" numeric(14, 2),
	"ours_revenue" numeric(18, 6) NOT NULL,
	"theirs_revenue" numeric(18, 6) NOT NULL,
	"revenue_delta_pct" numeric(14, 2),
	"flagged" boolean NOT NULL,
	"decision" text,
	"accepted_revenue" numeric(18, 6),
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "impression_log_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"log_date" date NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"columns" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"run_token" text,
	"rows_done" bigint DEFAULT 0 NOT NULL,
	"rows_total" bigint,
	"bytes" bigint,
	"storage_key" text,
	"file_name" text,
	"error" text,
	"requested_by" integer,
	"idempotency_key" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "impression_log_rows" (
	"log_date" date NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"publisher_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"ad_unit_id" integer NOT NULL,
	"deal_id" integer NOT NULL,
	"country_id" smallint NOT NULL,
	"device_id" smallint NOT NULL,
	"os_id" smallint NOT NULL,
	"format_id" smallint NOT NULL,
	"size_id" smallint NOT NULL,
	"environment_id" smallint NOT NULL,
	"bid_micros" bigint NOT NULL,
	"win_micros" bigint NOT NULL,
	CONSTRAINT "impression_log_rows_log_date_demand_partner_id_seq_pk" PRIMARY KEY("log_date","demand_partner_id","seq")
);
--> statement-breakpoint
CREATE TABLE "impression_log_samples" (
	"log_date" date NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"rows" integer NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "impression_log_samples_log_date_demand_partner_id_pk" PRIMARY KEY("log_date","demand_partner_id")
);
--> statement-breakpoint
CREATE TABLE "amazon_csv_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"columns" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_stat_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"source" text DEFAULT 'amazon_csv' NOT NULL,
	"file_name" text NOT NULL,
	"file_hash" text NOT NULL,
	"mapping_name" text,
	"rows" integer NOT NULL,
	"days" integer NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"replaced_count" integer DEFAULT 0 NOT NULL,
	"replaced" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" text DEFAULT 'imported' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_by" integer,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "partner_stats" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"revenue" numeric(18, 6) NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"source" text NOT NULL,
	"import_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_job_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"scheduled_for" timestamp with time zone,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"duration_ms" integer,
	"progress" smallint DEFAULT 0 NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"instance" text,
	"log" text DEFAULT '' NOT NULL,
	"error" text,
	"result" jsonb,
	"retry_of" bigint,
	"requested_by" integer
);
--> statement-breakpoint
CREATE TABLE "scheduled_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"task_type" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"owner_id" integer,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_status" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "ssp_auction_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"logged_at" timestamp with time zone NOT NULL,
	"request_id" text NOT NULL,
	"imp_id" text DEFAULT '1' NOT NULL,
	"publisher_id" integer NOT NULL,
	"site_id" integer,
	"inventory" text NOT NULL,
	"environment" text NOT NULL,
	"media_type" text NOT NULL,
	"partner_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"region" text NOT NULL,
	"deal_id" text,
	"bid_request" jsonb NOT NULL,
	"bid_response" jsonb,
	"latency_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"bid_price" numeric(12, 4),
	"bid_currency" text,
	"clearing_price" numeric(12, 4),
	"floor" numeric(12, 4),
	"source" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ssp_log_sampling" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"sample_rate_pct" smallint DEFAULT 10 NOT NULL,
	"duration_mode" text DEFAULT 'minutes' NOT NULL,
	"duration_minutes" integer DEFAULT 60,
	"until" timestamp with time zone,
	"partner_scope" text DEFAULT 'all' NOT NULL,
	"partner_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"last_sampled_minute" timestamp with time zone,
	"sampled_rows" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ssp_log_sampling_one_row" CHECK ("ssp_log_sampling"."id" = 1),
	CONSTRAINT "ssp_log_sampling_rate" CHECK ("ssp_log_sampling"."sample_rate_pct" BETWEEN 0 AND 100)
);
--> statement-breakpoint
ALTER TABLE "billing_rows" ADD COLUMN "revenue_source" text DEFAULT 'warehouse' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "reporting" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "discrepancy_figures" ADD CONSTRAINT "discrepancy_figures_request_id_discrepancy_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."discrepancy_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discrepancy_requests" ADD CONSTRAINT "discrepancy_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discrepancy_requests" ADD CONSTRAINT "discrepancy_requests_applied_by_users_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discrepancy_rows" ADD CONSTRAINT "discrepancy_rows_request_id_discrepancy_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."discrepancy_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discrepancy_rows" ADD CONSTRAINT "discrepancy_rows_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impression_log_requests" ADD CONSTRAINT "impression_log_requests_demand_partner_id_demand_partners_id_fk" FOREIGN KEY ("demand_partner_id") REFERENCES "public"."demand_partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impression_log_requests" ADD CONSTRAINT "impression_log_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amazon_csv_mappings" ADD CONSTRAINT "amazon_csv_mappings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amazon_csv_mappings" ADD CONSTRAINT "amazon_csv_mappings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stat_imports" ADD CONSTRAINT "partner_stat_imports_demand_partner_id_demand_partners_id_fk" FOREIGN KEY ("demand_partner_id") REFERENCES "public"."demand_partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stat_imports" ADD CONSTRAINT "partner_stat_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stat_imports" ADD CONSTRAINT "partner_stat_imports_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stats" ADD CONSTRAINT "partner_stats_demand_partner_id_demand_partners_id_fk" FOREIGN KEY ("demand_partner_id") REFERENCES "public"."demand_partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stats" ADD CONSTRAINT "partner_stats_import_id_partner_stat_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."partner_stat_imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stats" ADD CONSTRAINT "partner_stats_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_stats" ADD CONSTRAINT "partner_stats_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_job_runs" ADD CONSTRAINT "scheduled_job_runs_job_id_scheduled_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."scheduled_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_job_runs" ADD CONSTRAINT "scheduled_job_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_jobs" ADD CONSTRAINT "scheduled_jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_jobs" ADD CONSTRAINT "scheduled_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_jobs" ADD CONSTRAINT "scheduled_jobs_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssp_log_sampling" ADD CONSTRAINT "ssp_log_sampling_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discrepancy_requests_idem_idx" ON "discrepancy_requests" USING btree ("idem_key");--> statement-breakpoint
CREATE INDEX "discrepancy_requests_state_idx" ON "discrepancy_requests" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "discrepancy_rows_key_idx" ON "discrepancy_rows" USING btree ("request_id","day","network_id");--> statement-breakpoint
CREATE INDEX "discrepancy_rows_flagged_idx" ON "discrepancy_rows" USING btree ("request_id","flagged");--> statement-breakpoint
CREATE INDEX "impression_log_requests_requested_idx" ON "impression_log_requests" USING btree ("requested_at","id");--> statement-breakpoint
CREATE INDEX "impression_log_requests_status_idx" ON "impression_log_requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "impression_log_requests_partner_idx" ON "impression_log_requests" USING btree ("demand_partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "impression_log_requests_key_idx" ON "impression_log_requests" USING btree ("requested_by","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "amazon_csv_mappings_name_idx" ON "amazon_csv_mappings" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "partner_stat_imports_hash_idx" ON "partner_stat_imports" USING btree ("demand_partner_id","file_hash") WHERE state = 'imported';--> statement-breakpoint
CREATE INDEX "partner_stat_imports_list_idx" ON "partner_stat_imports" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_stats_key_idx" ON "partner_stats" USING btree ("demand_partner_id","day");--> statement-breakpoint
CREATE INDEX "partner_stats_day_idx" ON "partner_stats" USING btree ("day","demand_partner_id");--> statement-breakpoint
CREATE INDEX "partner_stats_import_idx" ON "partner_stats" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "scheduled_job_runs_job_idx" ON "scheduled_job_runs" USING btree ("job_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_job_runs_active_idx" ON "scheduled_job_runs" USING btree ("job_id") WHERE "scheduled_job_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "scheduled_job_runs_failed_idx" ON "scheduled_job_runs" USING btree ("finished_at") WHERE "scheduled_job_runs"."status" = 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_jobs_name_idx" ON "scheduled_jobs" USING btree ("name");--> statement-breakpoint
CREATE INDEX "scheduled_jobs_due_idx" ON "scheduled_jobs" USING btree ("next_run_at") WHERE "scheduled_jobs"."enabled";--> statement-breakpoint
CREATE INDEX "scheduled_jobs_last_run_idx" ON "scheduled_jobs" USING btree ("last_run_at","id");--> statement-breakpoint
CREATE INDEX "ssp_auction_logs_request_idx" ON "ssp_auction_logs" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "ssp_auction_logs_time_idx" ON "ssp_auction_logs" USING btree ("logged_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ssp_auction_logs_publisher_time_idx" ON "ssp_auction_logs" USING btree ("publisher_id","logged_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ssp_auction_logs_partner_time_idx" ON "ssp_auction_logs" USING btree ("partner_id","logged_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
INSERT INTO "ssp_log_sampling" ("id") VALUES (1) ON CONFLICT DO NOTHING;
