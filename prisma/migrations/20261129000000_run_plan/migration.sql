-- The plan of a test-run (which node calls which server, which nodes cannot run and why, the
-- order), made once when the run is asked for and executed by the worker as stored, instead of
-- being worked out again there. Runs stored before have none; the worker plans those itself.
-- AlterTable
ALTER TABLE "Run" ADD COLUMN "plan" JSON;
