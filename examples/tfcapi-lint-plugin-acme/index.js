// An example tfcapi-lint plugin. Each rule is written with exactly the API the
// built-in rules use: defineRule, the module model in ctx, and ctx.report.
import { constantValue, defineRule } from "tfcapi-lint";

/** Tags every taggable resource of the organisation must carry. */
const REQUIRED_TAGS = ["owner", "cost-center"];

const requiredTags = defineRule({
  id: "acme/required-tags",
  severity: "warning",
  roles: ["cluster", "machine", "machinepool"],
  scope: "all",
  fixable: false,
  summary: `Resources with a literal tags map carry the ${REQUIRED_TAGS.join(" and ")} tags`,
  docs: [
    "# acme/required-tags",
    "",
    `Every resource that sets a literal \`tags\` map must include ${REQUIRED_TAGS.map((t) => `\`${t}\``).join(" and ")},`,
    "so that the cost of every cluster can be traced to a team.",
    "",
    "A `tags` value built from variables or functions is not checked: only what",
    "can be read from the source is.",
    "",
  ].join("\n"),
  check(ctx) {
    for (const resource of ctx.expressions.resources.values()) {
      if (resource.mode !== "managed") continue;
      const tags = resource.body.attributes.find((a) => a.name === "tags");
      if (!tags) continue;
      const value = constantValue(tags.expr);
      if (!value.known || value.value === null || typeof value.value !== "object" || Array.isArray(value.value)) continue;
      const missing = REQUIRED_TAGS.filter((t) => !Object.hasOwn(value.value, t));
      if (missing.length === 0) continue;
      ctx.report({
        message: `${resource.address} has no ${missing.map((t) => `"${t}"`).join(" or ")} tag; add ${missing.length === 1 ? "it" : "them"} to tags`,
        file: resource.file,
        range: tags.expr.range,
      });
    }
  },
});

const noPublicIp = defineRule({
  id: "acme/no-public-ip",
  severity: "error",
  roles: ["machine", "machinepool"],
  scope: "root",
  fixable: false,
  summary: "Nodes never get a public IP address (associate_public_ip_address = true)",
  check(ctx) {
    for (const resource of ctx.expressions.resources.values()) {
      for (const block of resource.body.blocks) {
        if (block.type !== "network_interfaces") continue;
        const attr = block.body.attributes.find((a) => a.name === "associate_public_ip_address");
        if (!attr) continue;
        const v = constantValue(attr.expr);
        if (v.known && v.value === true) {
          ctx.report({ message: `${resource.address} gives nodes a public IP address; acme nodes stay private`, file: resource.file, range: attr.range });
        }
      }
    }
  },
});

// A visitor rule: instead of walking the module itself, check() returns
// handlers by node kind, and the linter calls them during the one walk it
// makes of each module for every such rule.
const noTimestampTags = defineRule({
  id: "acme/no-timestamp-tags",
  severity: "warning",
  roles: ["cluster", "machine", "machinepool"],
  scope: "all",
  fixable: false,
  summary: "Tags and labels are not stamped with timestamp(), which changes on every plan",
  check(ctx) {
    return {
      FunctionCall(call, site) {
        if (call.name !== "timestamp") return;
        // Where the call is: its file, its top-level block, the attribute holding it.
        const attr = site.attribute?.name;
        if (attr !== "tags" && attr !== "labels") return;
        ctx.report({
          message: `${site.block.labels.join(".")} stamps ${attr} with timestamp(), a new value on every plan; take the time from a time_static resource`,
          file: site.file,
          range: call.range,
        });
      },
    };
  },
});

export default { name: "acme", rules: [requiredTags, noPublicIp, noTimestampTags] };
