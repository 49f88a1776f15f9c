-- +goose Up
-- create index "generationrule_tenant_id_project_id_priority_id" to table: "generation_rules"
CREATE INDEX "generationrule_tenant_id_project_id_priority_id" ON "generation_rules" ("tenant_id", "project_id", "priority", "id") WHERE (archived_at IS NULL);
-- create index "lifecyclerun_tenant_id_project_id_created_at_id" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_tenant_id_project_id_created_at_id" ON "lifecycle_runs" ("tenant_id", "project_id", "created_at", "id");

-- +goose Down
-- reverse: create index "lifecyclerun_tenant_id_project_id_created_at_id" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_tenant_id_project_id_created_at_id";
-- reverse: create index "generationrule_tenant_id_project_id_priority_id" to table: "generation_rules"
DROP INDEX "generationrule_tenant_id_project_id_priority_id";
