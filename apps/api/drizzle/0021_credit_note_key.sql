ALTER TABLE "invoices" ADD COLUMN "request_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_request_key_idx" ON "invoices" USING btree ("corrects_id","request_key");