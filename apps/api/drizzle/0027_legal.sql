CREATE TABLE "legal_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"template_version" integer NOT NULL,
	"language" text NOT NULL,
	"counterparty_type" text NOT NULL,
	"counterparty_id" integer NOT NULL,
	"counterparty_name" text NOT NULL,
	"values" jsonb NOT NULL,
	"manual_values" jsonb NOT NULL,
	"manual_count" integer DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"pdf" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"request_id" text NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legal_documents_type_check" CHECK ("legal_documents"."counterparty_type" in ('publisher', 'demand_partner'))
);
--> statement-breakpoint
CREATE TABLE "legal_template_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"number" integer NOT NULL,
	"title_en" text NOT NULL,
	"title_es" text NOT NULL,
	"body_en" text NOT NULL,
	"body_es" text NOT NULL,
	"comment" text NOT NULL,
	"restored_from" integer,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legal_template_versions_number_key" UNIQUE("template_id","number"),
	CONSTRAINT "legal_template_versions_number_check" CHECK ("legal_template_versions"."number" > 0)
);
--> statement-breakpoint
CREATE TABLE "legal_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"party" text NOT NULL,
	"description" text,
	"current_version" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "legal_documents" ADD CONSTRAINT "legal_documents_template_id_legal_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."legal_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_documents" ADD CONSTRAINT "legal_documents_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_template_versions" ADD CONSTRAINT "legal_template_versions_template_id_legal_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."legal_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_template_versions" ADD CONSTRAINT "legal_template_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_templates" ADD CONSTRAINT "legal_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_templates" ADD CONSTRAINT "legal_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "legal_documents_request_idx" ON "legal_documents" USING btree ("author_id","request_id");--> statement-breakpoint
CREATE INDEX "legal_documents_created_idx" ON "legal_documents" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "legal_documents_counterparty_idx" ON "legal_documents" USING btree ("counterparty_type","counterparty_id");--> statement-breakpoint
CREATE INDEX "legal_documents_template_idx" ON "legal_documents" USING btree ("template_id","template_version");--> statement-breakpoint
CREATE UNIQUE INDEX "legal_templates_name_idx" ON "legal_templates" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "legal_templates_name_sort_idx" ON "legal_templates" USING btree ("name","id");