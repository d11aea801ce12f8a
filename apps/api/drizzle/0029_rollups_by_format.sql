CREATE TABLE "stats_r_partner_format" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"demand_partner_id" integer NOT NULL,
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
CREATE TABLE "stats_r_publisher_format" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"publisher_id" integer NOT NULL,
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
CREATE INDEX "stats_r_partner_format_lvl_ts_idx" ON "stats_r_partner_format" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_format_partner_idx" ON "stats_r_partner_format" USING btree ("demand_partner_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_publisher_format_lvl_ts_idx" ON "stats_r_publisher_format" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_publisher_format_publisher_idx" ON "stats_r_publisher_format" USING btree ("publisher_id","lvl","ts");