import { readFile } from "node:fs/promises";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { findRepoRoot } from "../src/index.ts";

/**
 * prisma/schema.prisma is written by hand next to hand-written SQL migrations;
 * this test is what keeps the two in step.
 */
interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object";
  type: string;
  nativeType: [string, string[]] | null;
  isList: boolean;
  isRequired: boolean;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  schema: string | null;
  fields: DmmfField[];
}
interface DmmfEnum {
  name: string;
  dbName: string | null;
  values: { name: string; dbName: string | null }[];
}

interface Column {
  table_schema: string;
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: "YES" | "NO";
  character_maximum_length: number | null;
  datetime_precision: number | null;
}

/** The Postgres type a Prisma field maps to, as information_schema names it. */
function expectedType(
  field: DmmfField,
  enums: Map<string, string>,
): { data_type: string; udt_name: string; length?: number } {
  if (field.isList) {
    const element = expectedType({ ...field, isList: false }, enums);
    return { data_type: "ARRAY", udt_name: `_${element.udt_name}` };
  }
  if (field.kind === "enum") return { data_type: "USER-DEFINED", udt_name: enums.get(field.type)! };
  const native = field.nativeType?.[0];
  const args = field.nativeType?.[1] ?? [];
  switch (native ?? field.type) {
    case "Uuid":
      return { data_type: "uuid", udt_name: "uuid" };
    case "Char":
      return { data_type: "character", udt_name: "bpchar", length: Number(args[0]) };
    case "VarChar":
      return { data_type: "character varying", udt_name: "varchar", length: Number(args[0]) };
    case "Date":
      return { data_type: "date", udt_name: "date" };
    case "Timestamptz":
      return { data_type: "timestamp with time zone", udt_name: "timestamptz" };
    case "String":
      return { data_type: "text", udt_name: "text" };
    case "BigInt":
      return { data_type: "bigint", udt_name: "int8" };
    case "SmallInt":
      return { data_type: "smallint", udt_name: "int2" };
    case "Int":
      return { data_type: "integer", udt_name: "int4" };
    case "Decimal":
      return { data_type: "numeric", udt_name: "numeric" };
    case "Float":
      return { data_type: "double precision", udt_name: "float8" };
    case "Boolean":
      return { data_type: "boolean", udt_name: "bool" };
    case "Bytes":
      return { data_type: "bytea", udt_name: "bytea" };
    case "Json":
      // A Json field is jsonb unless it says @db.Json (json keeps text as sent).
      return native === "Json"
        ? { data_type: "json", udt_name: "json" }
        : { data_type: "jsonb", udt_name: "jsonb" };
    case "JsonB":
      return { data_type: "jsonb", udt_name: "jsonb" };
    case "DateTime":
      return { data_type: "timestamp without time zone", udt_name: "timestamp" };
    default:
      throw new Error(`no mapping for ${field.name}: ${native ?? field.type}; extend this test`);
  }
}

let models: DmmfModel[];
let enums: DmmfEnum[];
let columns: Column[];
let enumLabels: Map<string, string[]>;

beforeAll(async () => {
  const schemaText = await readFile(path.join(findRepoRoot(), "prisma", "schema.prisma"), "utf8");
  const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schemaText]] })));
  models = dmmf.datamodel.models;
  enums = dmmf.datamodel.enums;

  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  columns = (
    await client.query<Column>(
      `SELECT table_schema, table_name, column_name, data_type, udt_name, is_nullable,
              character_maximum_length, datetime_precision
         FROM information_schema.columns WHERE table_schema IN ('resume', 'ledger')`,
    )
  ).rows;
  const labels = await client.query<{ typname: string; labels: string[] }>(
    `SELECT t.typname, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname IN ('resume', 'ledger') GROUP BY t.typname`,
  );
  enumLabels = new Map(labels.rows.map((r) => [r.typname, r.labels]));
  await client.end();
});

describe("schema.prisma against the migrated database", () => {
  it("covers both services", () => {
    expect(models.map((m) => m.name).sort()).toEqual([
      "AccessToken",
      "Account",
      "AccountIdempotencyKey",
      "AccountTotal",
      "Certification",
      "Education",
      "Entry",
      "Event",
      "Experience",
      "Goal",
      "Hobby",
      "HoldEntry",
      "HoldExpirySweep",
      "HoldResolution",
      "IdempotencyKey",
      "JsonResumeDocument",
      "Profile",
      "PublicRateLimit",
      "RateLimit",
      "ResumeVersion",
      "ShareLink",
      "Skill",
      "TailoredVersion",
      "Transaction",
    ]);
  });

  it("has every enum with the same values in the same order", () => {
    for (const e of enums) {
      expect(enumLabels.get(e.dbName ?? e.name), e.name).toEqual(e.values.map((v) => v.dbName ?? v.name));
    }
  });

  it("has every model's table and every field's column with a matching type and nullability", () => {
    const enumDbNames = new Map(enums.map((e) => [e.name, e.dbName ?? e.name]));
    const problems: string[] = [];
    for (const model of models) {
      const table = model.dbName ?? model.name;
      const tableColumns = columns.filter((c) => c.table_schema === model.schema && c.table_name === table);
      if (tableColumns.length === 0) problems.push(`missing table ${model.schema}.${table}`);
      for (const field of model.fields.filter((f) => f.kind !== "object")) {
        const name = field.dbName ?? field.name;
        const column = tableColumns.find((c) => c.column_name === name);
        if (!column) {
          problems.push(`missing column ${table}.${name}`);
          continue;
        }
        const expected = expectedType(field, enumDbNames);
        if (column.data_type !== expected.data_type || column.udt_name !== expected.udt_name) {
          problems.push(
            `${table}.${name} is ${column.data_type}/${column.udt_name}, schema says ${expected.data_type}/${expected.udt_name}`,
          );
        }
        if (expected.length !== undefined && column.character_maximum_length !== expected.length) {
          problems.push(
            `${table}.${name} has length ${column.character_maximum_length}, schema says ${expected.length}`,
          );
        }
        const timestampPrecision =
          field.nativeType?.[0] === "Timestamptz" ? Number(field.nativeType[1][0] ?? 6) : undefined;
        if (timestampPrecision !== undefined && column.datetime_precision !== timestampPrecision) {
          problems.push(
            `${table}.${name} has precision ${column.datetime_precision}, schema says ${timestampPrecision}`,
          );
        }
        const nullable = field.isList ? false : !field.isRequired;
        if ((column.is_nullable === "YES") !== nullable) {
          problems.push(
            `${table}.${name} is ${column.is_nullable === "YES" ? "nullable" : "NOT NULL"}, schema says otherwise`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("has no column in a modelled table that schema.prisma does not know", () => {
    const known = new Set(
      models.flatMap((m) =>
        m.fields
          .filter((f) => f.kind !== "object")
          .map((f) => `${m.schema}.${m.dbName ?? m.name}.${f.dbName ?? f.name}`),
      ),
    );
    // Prisma's model leaves out fields of a type it cannot read (`Unsupported("xid8")`).
    const unsupported = new Set(["ledger.events.xact", "ledger.hold_expiry_sweeps.swept_snapshot"]);
    const unknown = columns
      .map((c) => `${c.table_schema}.${c.table_name}.${c.column_name}`)
      .filter((c) => !known.has(c) && !unsupported.has(c));
    expect(unknown).toEqual([]);
  });
});
