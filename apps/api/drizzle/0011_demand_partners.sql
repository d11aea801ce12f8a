ALTER TABLE "demand_partners" ADD COLUMN "side" text DEFAULT 'ssp' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "account_manager" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "endpoint_url" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "openrtb_version" text DEFAULT '2.6' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "gzip" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "timeout_ms" integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "media_types" jsonb DEFAULT '["banner"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "environments" jsonb DEFAULT '["site"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "sizes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "consent_frameworks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "simulate_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "geo_allow" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "geo_deny" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "default_floor" numeric(13, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "floor_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "revenue_share_pct" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "payment_terms" text DEFAULT 'net45' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "invoice_currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "min_amount" numeric(11, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "vat_id" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "billing_email" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "seller_id_at_partner" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "partner_domain" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "certification_authority_id" text;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD CONSTRAINT "demand_partners_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD CONSTRAINT "demand_partners_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD CONSTRAINT "demand_partners_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "demand_partners_endpoint_url_idx" ON "demand_partners" USING btree ("endpoint_url");--> statement-breakpoint
CREATE INDEX "demand_partners_side_name_idx" ON "demand_partners" USING btree ("side","name","id");--> statement-breakpoint
CREATE INDEX "demand_partners_company_idx" ON "demand_partners" USING btree ("company_id");