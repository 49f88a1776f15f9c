-- +goose Up
-- create index "commercelifecycletransition_ten_8f347c698fc1bcf505568e1b1bb8a4bb" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_ten_8f347c698fc1bcf505568e1b1bb8a4bb` ON `commerce_lifecycle_transitions` (`tenant_id`, `commerce_id`, `activity_generation_config_id`, `state_changed_at`, `id`);

-- +goose Down
-- reverse: create index "commercelifecycletransition_ten_8f347c698fc1bcf505568e1b1bb8a4bb" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_ten_8f347c698fc1bcf505568e1b1bb8a4bb`;
