import type { OpenAPIObject } from "trpc-to-openapi";

export interface RouteMatch {
  /** The path template, e.g. `/me/experience/{id}`. */
  template: string;
  /** Upper-case methods the path answers. */
  methods: string[];
}

/** Matches request paths against the paths of an OpenAPI document. Static segments win over parameters. */
export function createRouteTable(document: OpenAPIObject): (pathname: string) => RouteMatch | undefined {
  const routes = Object.entries(document.paths ?? {})
    .map(([template, item]) => ({
      template,
      methods: methodsOf(Object.keys(item ?? {})),
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
      parameters: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.parameters - b.parameters);
  return (pathname) => {
    const route = routes.find((r) => r.pattern.test(pathname));
    return route && { template: route.template, methods: route.methods };
  };
}

/** The methods of a path item, upper-case; HEAD wherever GET is (answered as GET without its body). */
function methodsOf(keys: string[]): string[] {
  const methods = keys
    .filter((k) => ["get", "post", "put", "patch", "delete"].includes(k))
    .map((k) => k.toUpperCase());
  return methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
}
