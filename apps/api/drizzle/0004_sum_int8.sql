-- sum_int8(bigint): the exact sum of bigint columns as a bigint.
-- PostgreSQL's sum(bigint) answers numeric; on PGlite (WebAssembly, no 128-bit integers) every row
-- then goes through numeric arithmetic, about half of the aggregation time of a report. int8pl is
-- the built-in bigint "+": exact, and it raises "bigint out of range" rather than wrap (at 9.2e18
-- micro-units, far beyond any report). Same result as sum() for every value a report can hold.
CREATE AGGREGATE sum_int8(bigint) (SFUNC = int8pl, STYPE = bigint, COMBINEFUNC = int8pl, PARALLEL = SAFE);
