-- +goose Up
-- add column "metrics" to table: "commerce_lifecycle_transitions"
ALTER TABLE `commerce_lifecycle_transitions` ADD COLUMN `metrics` json NULL;

-- +goose Down
-- reverse: add column "metrics" to table: "commerce_lifecycle_transitions"
ALTER TABLE `commerce_lifecycle_transitions` DROP COLUMN `metrics`;
