-- The node count of each workflow's document, stored when the document is written (issue 15), so
-- the list of workflows reads an integer instead of having Postgres parse every listed document
-- (8.7 ms for 20 documents of 1 MB in all, against 0.2 ms). Existing rows are backfilled here
-- from their documents, with the rule the list used before (a missing or non-array "nodes"
-- counts 0).
-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN "nodeCount" INTEGER NOT NULL DEFAULT 0;

-- Backfill
UPDATE "Workflow"
SET "nodeCount" = COALESCE(json_array_length(CASE WHEN json_typeof("document"->'nodes') = 'array'
                                                  THEN "document"->'nodes' END), 0);
