-- +goose Up
-- create index "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe" to table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe" ON "commerce_lifecycle_transitions" ("tenant_id", "commerce_id", "activity_generation_config_id", "state_changed_at", "id");

-- +goose Down
-- reverse: create index "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe" to table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe";
