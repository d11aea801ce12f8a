CREATE TABLE "resource_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"folder_id" integer,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"owner_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "resource_files_bytes_check" CHECK ("resource_files"."bytes" > 0),
	CONSTRAINT "resource_files_kind_check" CHECK ("resource_files"."kind" IN ('image', 'pdf', 'document', 'spreadsheet', 'presentation', 'csv', 'archive', 'video', 'audio'))
);
--> statement-breakpoint
CREATE TABLE "resource_folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"parent_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "resource_folders_not_own_parent" CHECK ("resource_folders"."parent_id" IS NULL OR "resource_folders"."parent_id" <> "resource_folders"."id")
);
--> statement-breakpoint
ALTER TABLE "resource_files" ADD CONSTRAINT "resource_files_folder_id_resource_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."resource_folders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_files" ADD CONSTRAINT "resource_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_files" ADD CONSTRAINT "resource_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_files" ADD CONSTRAINT "resource_files_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_folders" ADD CONSTRAINT "resource_folders_parent_id_resource_folders_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."resource_folders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_folders" ADD CONSTRAINT "resource_folders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_folders" ADD CONSTRAINT "resource_folders_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "resource_files_storage_key_idx" ON "resource_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "resource_files_folder_idx" ON "resource_files" USING btree ("folder_id","id");--> statement-breakpoint
CREATE INDEX "resource_files_created_idx" ON "resource_files" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "resource_files_name_idx" ON "resource_files" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "resource_files_kind_idx" ON "resource_files" USING btree ("kind","id");--> statement-breakpoint
CREATE UNIQUE INDEX "resource_folders_sibling_name_idx" ON "resource_folders" USING btree (coalesce("parent_id", 0),lower("name"));--> statement-breakpoint
CREATE INDEX "resource_folders_parent_idx" ON "resource_folders" USING btree ("parent_id");