-- +goose Up
-- modify "tenant_datasets" table (ADD COLUMN: rebuilding the table would cascade-delete its catalog rows)
ALTER TABLE `tenant_datasets` ADD COLUMN `managed` bool NOT NULL DEFAULT (false);

-- +goose Down
-- reverse: modify "tenant_datasets" table
ALTER TABLE `tenant_datasets` DROP COLUMN `managed`;
