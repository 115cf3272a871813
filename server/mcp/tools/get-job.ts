import { z } from "zod";
import { AppError } from "../../../shared/errors.ts";
import { PostingSchema } from "../../../shared/job.ts";
import { getPosting } from "../../search/similar.ts";
import { READ_ONLY, jsonSchema, type McpTool } from "../tool.ts";

const Input = z.object({ id: z.string().min(1).describe("The posting's id, as search_jobs results carry it") });
const Output = z.object({ job: PostingSchema });

export const getJobTool: McpTool = {
  definition: {
    name: "get_job",
    title: "Get one job posting",
    description: "The whole posting with this id (from a search_jobs or find_similar_jobs result): title, company, place, salary, tags, seniority, employment type and the full description. An unknown id is an error result.",
    inputSchema: jsonSchema(Input),
    outputSchema: jsonSchema(Output),
    annotations: { title: "Get one job posting", ...READ_ONLY },
  },

  async call(args, deps) {
    const { id } = readArgs(Input, args);
    return { job: await getPosting(deps, id) };
  },
};

/** Arguments by a tool's schema; a wrong one is an INVALID_PARAMETER naming it. */
export function readArgs<T extends z.ZodObject>(schema: T, args: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw invalidArgument(`${issue.path.join(".") || "arguments"} ${issue.message}`);
}

function invalidArgument(message: string) {
  return new AppError("INVALID_PARAMETER", message);
}
