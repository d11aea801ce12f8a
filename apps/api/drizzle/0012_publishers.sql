ALTER TABLE "publishers" ADD COLUMN "side" text DEFAULT 'ssp' NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "manager" text;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "revenue_share_pct" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "payment_terms" text DEFAULT 'net45' NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "min_payout" numeric(11, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "billing_email" text;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "seller_type" text DEFAULT 'PUBLISHER' NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "seller_domain" text;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "is_confidential" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "publishers" ADD CONSTRAINT "publishers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishers" ADD CONSTRAINT "publishers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishers" ADD CONSTRAINT "publishers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publishers_seller_id_idx" ON "publishers" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "publishers_side_name_idx" ON "publishers" USING btree ("side","name","id");