CREATE TABLE "ad_units" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"format_id" smallint NOT NULL,
	"size_id" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataviewer_shares" (
	"dataviewer_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "dataviewer_shares_dataviewer_id_role_id_pk" PRIMARY KEY("dataviewer_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "dataviewers" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" serial PRIMARY KEY NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'pmp' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand_partners" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'DSP' NOT NULL,
	"status" text DEFAULT 'live' NOT NULL,
	"qps_cap" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publishers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"seller_id" text,
	"status" text DEFAULT 'live' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qps_15m" (
	"ts" timestamp with time zone NOT NULL,
	"kind" smallint NOT NULL,
	"entity_id" integer NOT NULL,
	"minutes" smallint NOT NULL,
	"requests" bigint NOT NULL,
	"bids" bigint NOT NULL,
	"timeouts" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"cap_last" integer NOT NULL,
	"cap_max" integer NOT NULL,
	"latency_p95_ms" smallint NOT NULL,
	CONSTRAINT "qps_15m_kind_entity_id_ts_pk" PRIMARY KEY("kind","entity_id","ts")
);
--> statement-breakpoint
CREATE TABLE "qps_minute" (
	"ts" timestamp with time zone NOT NULL,
	"kind" smallint NOT NULL,
	"entity_id" integer NOT NULL,
	"requests" integer NOT NULL,
	"cap_qps" integer NOT NULL,
	"bids" integer NOT NULL,
	"timeouts" integer NOT NULL,
	"errors" integer NOT NULL,
	"latency_p95_ms" smallint NOT NULL,
	CONSTRAINT "qps_minute_kind_entity_id_ts_pk" PRIMARY KEY("kind","entity_id","ts")
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"name" text NOT NULL,
	"environment_id" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_hourly" (
	"ts" timestamp with time zone NOT NULL,
	"publisher_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"ad_unit_id" integer NOT NULL,
	"supply_endpoint_id" integer NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"deal_id" integer NOT NULL,
	"country_id" smallint NOT NULL,
	"device_id" smallint NOT NULL,
	"os_id" smallint NOT NULL,
	"format_id" smallint NOT NULL,
	"size_id" smallint NOT NULL,
	"environment_id" smallint NOT NULL,
	"ad_requests" integer NOT NULL,
	"bid_requests" integer NOT NULL,
	"bids" integer NOT NULL,
	"wins" integer NOT NULL,
	"impressions" integer NOT NULL,
	"clicks" integer NOT NULL,
	"timeouts" integer NOT NULL,
	"errors" integer NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_r_partner" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"ad_requests" bigint NOT NULL,
	"bid_requests" bigint NOT NULL,
	"bids" bigint NOT NULL,
	"wins" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"timeouts" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_r_partner_geo" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"country_id" smallint NOT NULL,
	"device_id" smallint NOT NULL,
	"environment_id" smallint NOT NULL,
	"format_id" smallint NOT NULL,
	"ad_requests" bigint NOT NULL,
	"bid_requests" bigint NOT NULL,
	"bids" bigint NOT NULL,
	"wins" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"timeouts" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_r_partner_publisher" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"publisher_id" integer NOT NULL,
	"country_id" smallint NOT NULL,
	"ad_requests" bigint NOT NULL,
	"bid_requests" bigint NOT NULL,
	"bids" bigint NOT NULL,
	"wins" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"timeouts" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_r_partner_supply" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"supply_endpoint_id" integer NOT NULL,
	"deal_id" integer NOT NULL,
	"ad_requests" bigint NOT NULL,
	"bid_requests" bigint NOT NULL,
	"bids" bigint NOT NULL,
	"wins" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"timeouts" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_r_publisher" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"publisher_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"environment_id" smallint NOT NULL,
	"format_id" smallint NOT NULL,
	"device_id" smallint NOT NULL,
	"ad_requests" bigint NOT NULL,
	"bid_requests" bigint NOT NULL,
	"bids" bigint NOT NULL,
	"wins" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"timeouts" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supply_endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"region" text DEFAULT 'eu' NOT NULL,
	"qps_cap" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ad_units" ADD CONSTRAINT "ad_units_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataviewer_shares" ADD CONSTRAINT "dataviewer_shares_dataviewer_id_dataviewers_id_fk" FOREIGN KEY ("dataviewer_id") REFERENCES "public"."dataviewers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataviewer_shares" ADD CONSTRAINT "dataviewer_shares_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataviewers" ADD CONSTRAINT "dataviewers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_demand_partner_id_demand_partners_id_fk" FOREIGN KEY ("demand_partner_id") REFERENCES "public"."demand_partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_units_site_idx" ON "ad_units" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "ad_units_name_idx" ON "ad_units" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "dataviewer_shares_role_idx" ON "dataviewer_shares" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "dataviewers_owner_idx" ON "dataviewers" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deals_code_idx" ON "deals" USING btree ("code");--> statement-breakpoint
CREATE INDEX "deals_name_idx" ON "deals" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "demand_partners_name_idx" ON "demand_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "publishers_name_idx" ON "publishers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "sites_publisher_idx" ON "sites" USING btree ("publisher_id");--> statement-breakpoint
CREATE INDEX "sites_name_idx" ON "sites" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "stats_hourly_ts_brin" ON "stats_hourly" USING brin ("ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_lvl_ts_idx" ON "stats_r_partner" USING btree ("lvl","ts","demand_partner_id");--> statement-breakpoint
CREATE INDEX "stats_r_partner_geo_lvl_ts_idx" ON "stats_r_partner_geo" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_geo_partner_idx" ON "stats_r_partner_geo" USING btree ("demand_partner_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_geo_partner_country_idx" ON "stats_r_partner_geo" USING btree ("demand_partner_id","country_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_publisher_lvl_ts_idx" ON "stats_r_partner_publisher" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_publisher_partner_idx" ON "stats_r_partner_publisher" USING btree ("demand_partner_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_publisher_publisher_idx" ON "stats_r_partner_publisher" USING btree ("publisher_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_supply_lvl_ts_idx" ON "stats_r_partner_supply" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_supply_partner_idx" ON "stats_r_partner_supply" USING btree ("demand_partner_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_publisher_lvl_ts_idx" ON "stats_r_publisher" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_publisher_publisher_idx" ON "stats_r_publisher" USING btree ("publisher_id","lvl","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "supply_endpoints_name_idx" ON "supply_endpoints" USING btree (lower("name"));