-- Request counts of the rate-limited routes, shared by every server instance (lib/http/rate-limit.ts:
-- rate-limiter-flexible's Postgres store, whose table this is; `expire` is epoch milliseconds).
-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);
