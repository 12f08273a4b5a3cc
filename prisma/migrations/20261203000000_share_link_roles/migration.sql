-- Share links with a role (docs/design.md §13.4): every existing link stays what it was, "can
-- view"; a "can edit" link lets each signed-in account that opens it edit that one workflow, and
-- ShareGrant records who did, for as long as the link is live.
-- AlterTable
ALTER TABLE "Share" ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'viewer';

-- CreateTable
CREATE TABLE "ShareGrant" (
    "shareId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShareGrant_pkey" PRIMARY KEY ("shareId","userId")
);

-- CreateIndex
CREATE INDEX "ShareGrant_userId_idx" ON "ShareGrant"("userId");

-- AddForeignKey
ALTER TABLE "ShareGrant" ADD CONSTRAINT "ShareGrant_shareId_fkey" FOREIGN KEY ("shareId") REFERENCES "Share"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareGrant" ADD CONSTRAINT "ShareGrant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
