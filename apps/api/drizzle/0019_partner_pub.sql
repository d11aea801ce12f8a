CREATE TABLE "stats_r_partner_pub" (
	"lvl" smallint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"demand_partner_id" integer NOT NULL,
	"publisher_id" integer NOT NULL,
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
CREATE INDEX "stats_r_partner_pub_lvl_ts_idx" ON "stats_r_partner_pub" USING btree ("lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_pub_partner_idx" ON "stats_r_partner_pub" USING btree ("demand_partner_id","lvl","ts");--> statement-breakpoint
CREATE INDEX "stats_r_partner_pub_publisher_idx" ON "stats_r_partner_pub" USING btree ("publisher_id","lvl","ts");