CREATE TABLE "app_profiles" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"store_id" text DEFAULT '' NOT NULL,
	"developer_domain" text,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "app_profiles_platform_check" CHECK ("app_profiles"."platform" IN ('ios', 'android'))
);
--> statement-breakpoint
CREATE TABLE "builder_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" integer,
	"name" text NOT NULL,
	"number" integer NOT NULL,
	"config" jsonb NOT NULL,
	"code" text NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" integer,
	CONSTRAINT "builder_versions_number_key" UNIQUE NULLS NOT DISTINCT("kind","subject_type","subject_id","number"),
	CONSTRAINT "builder_versions_subject_check" CHECK (("builder_versions"."subject_type" = 'none') = ("builder_versions"."subject_id" IS NULL)),
	CONSTRAINT "builder_versions_number_check" CHECK ("builder_versions"."number" > 0)
);
--> statement-breakpoint
CREATE TABLE "creative_resizes" (
	"id" text PRIMARY KEY NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"file_name" text NOT NULL,
	"input" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"outputs" jsonb NOT NULL,
	CONSTRAINT "creative_resizes_id_check" CHECK ("creative_resizes"."id" ~ '^[a-f0-9]{32}$')
);
--> statement-breakpoint
CREATE TABLE "campaign_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"payout" numeric(12, 4) NOT NULL,
	"revenue" numeric(12, 4) NOT NULL,
	"postback_url" text NOT NULL,
	"click_window_days" smallint DEFAULT 30 NOT NULL,
	"view_window_hours" smallint DEFAULT 24 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"advertiser_id" integer NOT NULL,
	"offer_id" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"total_budget" numeric(11, 2) NOT NULL,
	"daily_budget" numeric(11, 2),
	"model" text NOT NULL,
	"rate" numeric(12, 4) NOT NULL,
	"cap_type" text DEFAULT 'none' NOT NULL,
	"daily_cap" numeric(12, 2),
	"total_cap" numeric(12, 2),
	"countries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"platforms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"devices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"advertiser_id" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"tracking_url" text NOT NULL,
	"preview_url" text,
	"payout" numeric(12, 4) NOT NULL,
	"revenue" numeric(12, 4) NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"countries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"platforms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cap_type" text DEFAULT 'none' NOT NULL,
	"daily_cap" numeric(12, 2),
	"total_cap" numeric(12, 2),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "postback_tests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by" integer,
	"idempotency_key" text,
	"status" text NOT NULL,
	"url" text NOT NULL,
	"macro_values" jsonb NOT NULL,
	"http_status" smallint,
	"response_headers" jsonb,
	"response_body" text,
	"redirects" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_key" text,
	"error_detail" text,
	"duration_ms" integer
);
--> statement-breakpoint
ALTER TABLE "app_profiles" ADD CONSTRAINT "app_profiles_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_profiles" ADD CONSTRAINT "app_profiles_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_versions" ADD CONSTRAINT "builder_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_versions" ADD CONSTRAINT "builder_versions_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "creative_resizes" ADD CONSTRAINT "creative_resizes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_events" ADD CONSTRAINT "campaign_events_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_events" ADD CONSTRAINT "campaign_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_events" ADD CONSTRAINT "campaign_events_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_advertiser_id_demand_partners_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."demand_partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_advertiser_id_demand_partners_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."demand_partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postback_tests" ADD CONSTRAINT "postback_tests_event_id_campaign_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."campaign_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postback_tests" ADD CONSTRAINT "postback_tests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "builder_versions_subject_idx" ON "builder_versions" USING btree ("kind","subject_type","subject_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "builder_versions_kind_idx" ON "builder_versions" USING btree ("kind","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "creative_resizes_expires_idx" ON "creative_resizes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_events_code_idx" ON "campaign_events" USING btree ("campaign_id","code");--> statement-breakpoint
CREATE INDEX "campaign_events_name_idx" ON "campaign_events" USING btree ("campaign_id","name","id");--> statement-breakpoint
CREATE INDEX "campaigns_name_idx" ON "campaigns" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "campaigns_start_idx" ON "campaigns" USING btree ("start_date","id");--> statement-breakpoint
CREATE INDEX "campaigns_advertiser_idx" ON "campaigns" USING btree ("advertiser_id","id");--> statement-breakpoint
CREATE INDEX "campaigns_offer_idx" ON "campaigns" USING btree ("offer_id","id");--> statement-breakpoint
CREATE INDEX "offers_name_idx" ON "offers" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "offers_advertiser_idx" ON "offers" USING btree ("advertiser_id","id");--> statement-breakpoint
CREATE INDEX "offers_updated_idx" ON "offers" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "postback_tests_event_idx" ON "postback_tests" USING btree ("event_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "postback_tests_in_flight_idx" ON "postback_tests" USING btree ("event_id") WHERE "postback_tests"."status" = 'sending';--> statement-breakpoint
CREATE UNIQUE INDEX "postback_tests_key_idx" ON "postback_tests" USING btree ("event_id","idempotency_key");