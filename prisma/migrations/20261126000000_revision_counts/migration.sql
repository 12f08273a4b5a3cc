-- Node and edge counts stored on each revision when it is written (issue 15), so the history
-- list reads two integers instead of parsing every listed document. Existing rows are backfilled
-- here from their documents, with the same rule the list used before (a missing or non-array
-- "nodes"/"edges" counts 0).
-- AlterTable
ALTER TABLE "WorkflowRevision" ADD COLUMN "nodeCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "edgeCount" INTEGER NOT NULL DEFAULT 0;

-- Backfill
UPDATE "WorkflowRevision"
SET "nodeCount" = COALESCE(json_array_length(CASE WHEN json_typeof("document"->'nodes') = 'array'
                                                  THEN "document"->'nodes' END), 0),
    "edgeCount" = COALESCE(json_array_length(CASE WHEN json_typeof("document"->'edges') = 'array'
                                                  THEN "document"->'edges' END), 0);
