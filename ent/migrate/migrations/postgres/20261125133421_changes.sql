-- +goose Up
-- modify "commerce_lifecycle_transitions" table
ALTER TABLE "commerce_lifecycle_transitions" ADD COLUMN "metrics" jsonb NULL;

-- +goose Down
-- reverse: modify "commerce_lifecycle_transitions" table
ALTER TABLE "commerce_lifecycle_transitions" DROP COLUMN "metrics";
