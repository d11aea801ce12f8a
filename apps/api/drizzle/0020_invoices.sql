CREATE TABLE "invoice_issuers" (
	"id" serial PRIMARY KEY NOT NULL,
	"team" text NOT NULL,
	"legal_name" text NOT NULL,
	"tax_id" text NOT NULL,
	"country" text DEFAULT 'ES' NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"postal_code" text NOT NULL,
	"email" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text,
	"registry" text,
	"invoice_prefix" text NOT NULL,
	"credit_prefix" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_issuers_team_unique" UNIQUE("team")
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"invoice_id" integer NOT NULL,
	"position" integer NOT NULL,
	"product" text NOT NULL,
	"description" text NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	CONSTRAINT "invoice_lines_invoice_id_position_pk" PRIMARY KEY("invoice_id","position")
);
--> statement-breakpoint
CREATE TABLE "invoice_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"paid_on" date NOT NULL,
	"reference" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_sequences" (
	"issuer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	"last_issue_date" date,
	CONSTRAINT "invoice_sequences_issuer_id_kind_year_pk" PRIMARY KEY("issuer_id","kind","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"team" text NOT NULL,
	"kind" text DEFAULT 'invoice' NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"issuer_id" integer NOT NULL,
	"counterparty_type" text DEFAULT 'demand_partner' NOT NULL,
	"counterparty_id" integer NOT NULL,
	"currency" text NOT NULL,
	"months" jsonb NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"payment_terms" text NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"revenue" numeric(18, 2) NOT NULL,
	"fraud_percentage" numeric(5, 2),
	"fraud_revenue" numeric(18, 2),
	"spoofing_percentage" numeric(5, 2),
	"spoofing_revenue" numeric(18, 2),
	"apply_deductions" boolean DEFAULT true NOT NULL,
	"comments" text,
	"tax_treatment" text NOT NULL,
	"base" numeric(18, 2) NOT NULL,
	"vat_rate" numeric(5, 2) NOT NULL,
	"vat_amount" numeric(18, 2) NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"paid" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credited" numeric(18, 2) DEFAULT '0' NOT NULL,
	"series" text,
	"sequence" integer,
	"number" text,
	"issue_date" date,
	"due_date" date,
	"language" text DEFAULT 'en' NOT NULL,
	"customer" jsonb,
	"corrects_id" integer,
	"correction_reason" text,
	"pdf_sha256" text,
	"sent_at" timestamp with time zone,
	"sent_to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by" integer,
	"issued_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifactu_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"kind" text NOT NULL,
	"issuer_tax_id" text NOT NULL,
	"number" text NOT NULL,
	"issue_date" date NOT NULL,
	"invoice_type" text DEFAULT '' NOT NULL,
	"total_tax" text DEFAULT '' NOT NULL,
	"total_amount" text DEFAULT '' NOT NULL,
	"previous_hash" text NOT NULL,
	"generated_at" text NOT NULL,
	"hash" text NOT NULL,
	"xml" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_rows" ADD COLUMN "impressions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_rows" ADD COLUMN "invoice_id" integer;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "invoicing_blocked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "invoicing_blocked_reason" text;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_sequences" ADD CONSTRAINT "invoice_sequences_issuer_id_invoice_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."invoice_issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issuer_id_invoice_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."invoice_issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_issuer_id_invoice_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."invoice_issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice_idx" ON "invoice_payments" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_idx" ON "invoices" USING btree ("issuer_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_series_seq_idx" ON "invoices" USING btree ("issuer_id","series","sequence");--> statement-breakpoint
CREATE INDEX "invoices_list_idx" ON "invoices" USING btree ("team","kind","state","id");--> statement-breakpoint
CREATE INDEX "invoices_counterparty_idx" ON "invoices" USING btree ("counterparty_type","counterparty_id");--> statement-breakpoint
CREATE INDEX "invoices_corrects_idx" ON "invoices" USING btree ("corrects_id");--> statement-breakpoint
CREATE INDEX "verifactu_records_chain_idx" ON "verifactu_records" USING btree ("issuer_id","id");--> statement-breakpoint
CREATE INDEX "verifactu_records_invoice_idx" ON "verifactu_records" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "billing_rows_invoice_idx" ON "billing_rows" USING btree ("invoice_id");--> statement-breakpoint
CREATE FUNCTION "verifactu_records_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'verifactu_records is append-only: a record is never changed or removed';
END
$$;--> statement-breakpoint
CREATE TRIGGER "verifactu_records_no_change" BEFORE UPDATE OR DELETE ON "verifactu_records" FOR EACH ROW EXECUTE FUNCTION "verifactu_records_append_only"();--> statement-breakpoint
CREATE TRIGGER "verifactu_records_no_truncate" BEFORE TRUNCATE ON "verifactu_records" FOR EACH STATEMENT EXECUTE FUNCTION "verifactu_records_append_only"();
