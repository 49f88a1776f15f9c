-- +goose Up
-- create index "generationdecision_tenant_id_project_id_decided_at_id" to table: "generation_decisions"
CREATE INDEX "generationdecision_tenant_id_project_id_decided_at_id" ON "generation_decisions" ("tenant_id", "project_id", "decided_at", "id");

-- +goose Down
-- reverse: create index "generationdecision_tenant_id_project_id_decided_at_id" to table: "generation_decisions"
DROP INDEX "generationdecision_tenant_id_project_id_decided_at_id";
