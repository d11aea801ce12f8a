CREATE TABLE "agencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"company_id" integer NOT NULL,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"commission_pct" numeric(5, 2) NOT NULL,
	"advertisers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "agencies" ADD CONSTRAINT "agencies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agencies" ADD CONSTRAINT "agencies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agencies" ADD CONSTRAINT "agencies_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agencies_company_idx" ON "agencies" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "agencies_name_idx" ON "agencies" USING btree ("name","id");--> statement-breakpoint
-- People who manage agencies, partners and publishers pick the company behind them: they read companies.
UPDATE "roles" SET "acl" = "acl" || '{"/v1/companies": ["read"]}'::jsonb, "updated_at" = now()
 WHERE "name" IN ('DEMAND_LEAD', 'DEMAND_HEAD', 'PERFORMANCE_LEAD', 'PERFORMANCE_HEAD', 'SSP_SUPPLY_LEAD', 'SSP_SUPPLY_HEAD') AND NOT ("acl" ? '/v1/companies');
