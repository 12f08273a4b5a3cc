-- jsonb stores object keys sorted, which reorders a tool's declared properties and so the node
-- parameter order (DESIGN §1); json keeps the text as written. Rows stored before this keep the
-- order jsonb gave them.
-- AlterTable
ALTER TABLE "Workflow" ALTER COLUMN "document" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "WorkflowRevision" ALTER COLUMN "document" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "Toolkit" ALTER COLUMN "declarations" SET DATA TYPE JSON;

