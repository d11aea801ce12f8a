CREATE TABLE "floor_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"publisher" text DEFAULT '*' NOT NULL,
	"site" text DEFAULT '*' NOT NULL,
	"ad_unit" text DEFAULT '*' NOT NULL,
	"country" text DEFAULT '*' NOT NULL,
	"device" text DEFAULT '*' NOT NULL,
	"media_type" text DEFAULT '*' NOT NULL,
	"size" text DEFAULT '*' NOT NULL,
	"demand_partner" text DEFAULT '*' NOT NULL,
	"deal" text DEFAULT '*' NOT NULL,
	"key_string" text NOT NULL,
	"specificity" integer NOT NULL,
	"cpm" numeric(12, 4) NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"type" text DEFAULT 'hard' NOT NULL,
	"from_version" integer NOT NULL,
	"to_version" integer
);
--> statement-breakpoint
CREATE TABLE "floor_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"restored_from" integer,
	"added" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"removed" integer DEFAULT 0 NOT NULL,
	"rule_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "bidfloor" numeric(12, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "bidfloorcur" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "auction_type" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "wseat" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "wadomain" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "publisher_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "ad_unit_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "guaranteed_impressions" bigint;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "floor_rules" ADD CONSTRAINT "floor_rules_from_version_floor_versions_id_fk" FOREIGN KEY ("from_version") REFERENCES "public"."floor_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "floor_rules" ADD CONSTRAINT "floor_rules_to_version_floor_versions_id_fk" FOREIGN KEY ("to_version") REFERENCES "public"."floor_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "floor_versions" ADD CONSTRAINT "floor_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "floor_rules_current_key_idx" ON "floor_rules" USING btree ("key_string") WHERE "floor_rules"."to_version" IS NULL;--> statement-breakpoint
CREATE INDEX "floor_rules_current_idx" ON "floor_rules" USING btree ("id") WHERE "floor_rules"."to_version" IS NULL;--> statement-breakpoint
CREATE INDEX "floor_rules_current_publisher_idx" ON "floor_rules" USING btree ("publisher","id") WHERE "floor_rules"."to_version" IS NULL;--> statement-breakpoint
CREATE INDEX "floor_rules_from_idx" ON "floor_rules" USING btree ("from_version");--> statement-breakpoint
CREATE INDEX "floor_rules_to_idx" ON "floor_rules" USING btree ("to_version");--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deals_partner_idx" ON "deals" USING btree ("demand_partner_id","id");--> statement-breakpoint
CREATE INDEX "deals_updated_idx" ON "deals" USING btree ("updated_at","id");