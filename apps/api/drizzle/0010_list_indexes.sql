-- Trigram indexes serve the lists' "contains" filters (ILIKE '%…%'). pg_trgm is a trusted extension
-- (PostgreSQL 13+): the database's owner may create it; PGlite loads it at start (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "companies_trade_name_idx" ON "companies" USING btree ("trade_name","id");--> statement-breakpoint
CREATE INDEX "companies_city_idx" ON "companies" USING btree ("city","id");--> statement-breakpoint
CREATE INDEX "companies_country_idx" ON "companies" USING btree ("country","id");--> statement-breakpoint
CREATE INDEX "companies_legal_name_trgm_idx" ON "companies" USING gin ("legal_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_trade_name_trgm_idx" ON "companies" USING gin ("trade_name" gin_trgm_ops);