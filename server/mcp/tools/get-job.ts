import { z } from "zod";
import { JobDetailSchema } from "../../../shared/job.ts";
import { getPosting } from "../../search/similar.ts";
import { READ_ONLY, jsonSchema, readArgs, type McpTool } from "../tool.ts";

const Input = z.object({ id: z.string().min(1).describe("The posting's id, as search_jobs results carry it") });
const Output = z.object({ job: JobDetailSchema });

export const getJobTool: McpTool = {
  definition: {
    name: "get_job",
    title: "Get one job posting",
    description: "The whole posting with this id (from a search_jobs or find_similar_jobs result): title, company, place, salary, tags, seniority, employment type and the full description, its cluster (cluster_id, first_seen, last_seen, times_posted) and the same job's other postings (same_job: reposts, copies on other sources). An unknown id is an error result.",
    inputSchema: jsonSchema(Input),
    outputSchema: jsonSchema(Output),
    annotations: { title: "Get one job posting", ...READ_ONLY },
  },

  async call(args, deps) {
    const { id } = readArgs(Input, args);
    return { job: await getPosting(deps, id) };
  },
};
