-- +goose Up
-- modify "tenant_datasets" table
ALTER TABLE "tenant_datasets" ADD COLUMN "managed" boolean NOT NULL DEFAULT false;

-- +goose Down
-- reverse: modify "tenant_datasets" table
ALTER TABLE "tenant_datasets" DROP COLUMN "managed";
