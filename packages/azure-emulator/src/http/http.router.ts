import type { RequestContext } from './http.context';

export type RouteParameters = Readonly<Record<string, string>>;
export type RouteHandler = (context: RequestContext, parameters: RouteParameters) => Promise<void> | void;

interface CompiledRoute {
  readonly method: string;
  readonly segments: readonly { readonly literal?: string; readonly parameter?: string }[];
  readonly handler: RouteHandler;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly handler: RouteHandler; readonly parameters: RouteParameters }
  | { readonly kind: 'wrongMethod' }
  | { readonly kind: 'missing' };

/** Matches paths like ARM does: literal segments without regard to case, `{name}` captures one segment. */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(method: string, pattern: string, handler: RouteHandler): this {
    const segments = pattern
      .split('/')
      .filter((segment) => segment.length > 0)
      .map((segment) =>
        segment.startsWith('{') && segment.endsWith('}')
          ? { parameter: segment.slice(1, -1) }
          : { literal: segment.toLowerCase() },
      );
    this.routes.push({ method, segments, handler });
    return this;
  }

  match(method: string, segments: readonly string[]): RouteMatch {
    const lowered = segments.map((segment) => segment.toLowerCase());
    let isPathKnown = false;
    for (const route of this.routes) {
      const parameters = matchSegments(route, segments, lowered);
      if (!parameters) continue;
      if (route.method === method) return { kind: 'found', handler: route.handler, parameters };
      isPathKnown = true;
    }
    return isPathKnown ? { kind: 'wrongMethod' } : { kind: 'missing' };
  }
}

function matchSegments(
  route: CompiledRoute,
  segments: readonly string[],
  lowered: readonly string[],
): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const parameters: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const expected = route.segments[index];
    const actual = segments[index] ?? '';
    if (!expected) return undefined;
    if (expected.parameter) {
      parameters[expected.parameter] = actual;
    } else if (expected.literal !== lowered[index]) {
      return undefined;
    }
  }
  return parameters;
}
