-- Workflow documents and their revisions are written whole on every save. Compress them with lz4
-- where the server has it (Postgres 14 and later built with lz4, as Debian's and the official
-- images are): it inserts a 50–200 KB document in 0.6–0.7 of the time the default pglz takes
-- (`npm run bench -- compression`), for about a fifth more space. A server without lz4 (or the
-- embedded database) keeps the default, and that is not an error. Rows already stored keep their
-- compression until they are written again.
DO $$
BEGIN
  ALTER TABLE "Workflow" ALTER COLUMN "document" SET COMPRESSION lz4;
  ALTER TABLE "WorkflowRevision" ALTER COLUMN "document" SET COMPRESSION lz4;
EXCEPTION
  WHEN feature_not_supported OR invalid_parameter_value OR syntax_error OR undefined_object THEN
    RAISE NOTICE 'lz4 compression is not available here: documents keep the default compression';
END
$$;
