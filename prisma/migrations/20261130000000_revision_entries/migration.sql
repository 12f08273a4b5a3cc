-- A history entry may stand for several consecutive autosaved versions: the autosaves of a few
-- minutes of editing are folded into one entry (lib/db/workflows.ts), which then holds the
-- newest of them. "firstVersion" is the first version the entry stands for ("version" the last,
-- whose document it keeps), "updatedAt" when that last version was saved ("createdAt" stays when
-- the entry was begun). Existing rows each stand for their own version, saved when created.
-- AlterTable
ALTER TABLE "WorkflowRevision" ADD COLUMN "firstVersion" INTEGER,
ADD COLUMN "updatedAt" TIMESTAMP(3);

-- Backfill
UPDATE "WorkflowRevision" SET "firstVersion" = "version", "updatedAt" = "createdAt";

ALTER TABLE "WorkflowRevision" ALTER COLUMN "firstVersion" SET NOT NULL,
ALTER COLUMN "updatedAt" SET NOT NULL,
ALTER COLUMN "updatedAt" SET DEFAULT CURRENT_TIMESTAMP;
