-- +goose Up
-- drop index "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da" from table: "generation_rules"
DROP INDEX "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da";
-- create index "generationrule_tenant_id_activ_914d7e7e36b3f30ad49a7801f1ad60f3" to table: "generation_rules"
CREATE INDEX "generationrule_tenant_id_activ_914d7e7e36b3f30ad49a7801f1ad60f3" ON "generation_rules" ("tenant_id", "activity_generation_config_id", "priority", "id") WHERE (archived_at IS NULL);

-- +goose Down
-- reverse: create index "generationrule_tenant_id_activ_914d7e7e36b3f30ad49a7801f1ad60f3" to table: "generation_rules"
DROP INDEX "generationrule_tenant_id_activ_914d7e7e36b3f30ad49a7801f1ad60f3";
-- reverse: drop index "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da" from table: "generation_rules"
CREATE INDEX "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da" ON "generation_rules" ("tenant_id", "activity_generation_config_id", "priority", "name", "id") WHERE (archived_at IS NULL);
