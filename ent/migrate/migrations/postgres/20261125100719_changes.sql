-- +goose Up
-- drop index "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe" from table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe";
-- drop index "commercelifecycletransition_tenant_id" from table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_tenant_id";
-- modify "commerce_lifecycle_transitions" table
ALTER TABLE "commerce_lifecycle_transitions" DROP CONSTRAINT "commerce_lifecycle_transitions_cd591dd5c8127eb4bf80cf65576cbba0", DROP CONSTRAINT "commerce_lifecycle_transitions_commerces_commerce", DROP CONSTRAINT "commerce_lifecycle_transitions_tenants_tenant";

-- +goose Down
-- reverse: modify "commerce_lifecycle_transitions" table
ALTER TABLE "commerce_lifecycle_transitions" ADD CONSTRAINT "commerce_lifecycle_transitions_tenants_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, ADD CONSTRAINT "commerce_lifecycle_transitions_commerces_commerce" FOREIGN KEY ("commerce_id") REFERENCES "commerces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, ADD CONSTRAINT "commerce_lifecycle_transitions_cd591dd5c8127eb4bf80cf65576cbba0" FOREIGN KEY ("activity_generation_config_id") REFERENCES "activity_generation_configs" ("id") ON UPDATE NO ACTION ON DELETE CASCADE;
-- reverse: drop index "commercelifecycletransition_tenant_id" from table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_tenant_id" ON "commerce_lifecycle_transitions" ("tenant_id");
-- reverse: drop index "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe" from table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_te_2f6168785d4eaa7cb7866d3701cf1cfe" ON "commerce_lifecycle_transitions" ("tenant_id", "commerce_id", "activity_generation_config_id", "state_changed_at", "id");
