// Compile-time proof that the generated types describe the query-builder
// operations: a typed createAudience variables value with a @oneOf filter
// tree, and a walk over a typed answer (make codegen-check runs tsc on it).
import type {
  CreateAudienceMutation,
  CreateAudienceMutationVariables,
  FilterNodeInput,
  ValidateEventFilterQueryVariables,
} from "./generated/types";

const pharmacies: FilterNodeInput = {
  group: {
    logicalOperator: "AND",
    children: [
      { predicate: { comparisonOperator: "EQUALS", column: { table: "commerces", column: "segment" }, value: "pharmacy" } },
      { predicate: { comparisonOperator: "IN", column: { table: "commerces", column: "city" }, value: ["Quito", "Lima"] } },
    ],
  },
};

export const create: CreateAudienceMutationVariables = {
  input: {
    name: "Pharmacies",
    queryBlocks: [
      {
        order: 0,
        from: { table: "commerces" },
        select: { items: [{ kind: "column", column: { table: "commerces", column: "commerce_id" } }] },
        timeWindow: { timeOperator: "IN_THE_LAST", unit: "DAYS", value: 30 },
        where: pharmacies,
      },
    ],
  },
};

export const validate: ValidateEventFilterQueryVariables = {
  queryBlocks: [
    {
      order: 0,
      from: { table: "events" },
      select: {
        items: [
          { kind: "column", column: { table: "events", column: "platform" } },
          { kind: "aggregate", aggregate: { operator: "COUNT", operand: { star: true } }, alias: "n" },
        ],
      },
      groupBy: [{ table: "events", column: "platform" }],
    },
  ],
};

// The tables a created audience's where trees name.
export function tables(answer: CreateAudienceMutation): string[] {
  const out: string[] = [];
  for (const block of answer.createAudience.queryBlocks ?? []) {
    const where = block.where;
    if (where?.__typename === "FilterPredicate" && where.column) {
      out.push(where.column.table);
    }
    if (where?.__typename === "FilterGroup") {
      for (const child of where.children) {
        if (child.__typename === "FilterPredicate" && child.column) {
          out.push(child.column.table);
        }
      }
    }
  }
  return out;
}
