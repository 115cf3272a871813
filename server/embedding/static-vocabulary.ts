import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { decodeKeyTable } from "../text/key-table.ts";

/*
 * The offline model's vocabulary as one hash table in a file. Its tokenizer (@huggingface/tokenizers'
 * WordPiece over whole words) otherwise parses a 3.3 MB tokenizer.json and builds a Map of 200,002 words in
 * every process: 0.6–0.9 s of CPU and ~75 MB, most of a CLI command's start on this machine. The library
 * still normalises and splits the text; only its word lookup is this table, which is read, not built.
 */

/** The tokenizer's rules (tokenizer.json with only the special tokens as vocabulary), beside the table. */
export const TOKENIZER_RULES = "tokenizer-rules.json";
/** The vocabulary (special tokens first, in id order) as a key table (text/key-table.ts): a word's index is its id. */
export const VOCABULARY_INDEX = "vocabulary.bin";

/**
 * The offline model's tokenizer over the vocabulary table in `dir`: the library's own Tokenizer, built
 * from the rules file, with its WordPiece model's word lookup (`model.tokens_to_ids`, which its encode
 * reads) replaced by the table. Its ids are the full tokenizer.json's, id for id (tests/unit/embedding).
 */
export async function tableTokenizer(dir: string): Promise<Tokenizer> {
  const [rules, config, index] = await Promise.all([
    readFile(join(dir, TOKENIZER_RULES), "utf8").then(JSON.parse),
    readFile(join(dir, "tokenizer_config.json"), "utf8").then(JSON.parse),
    readFile(join(dir, VOCABULARY_INDEX)),
  ]);
  const tokenizer = new Tokenizer(rules, config);
  const model = (tokenizer as unknown as { model: { tokens_to_ids: unknown } }).model;
  if (!(model.tokens_to_ids instanceof Map)) throw new Error(`@huggingface/tokenizers no longer keeps a model's words in tokens_to_ids`);
  try {
    model.tokens_to_ids = decodeKeyTable(index, join(dir, VOCABULARY_INDEX));
  } catch (error) {
    throw new Error(`${(error as Error).message}: rebuild the model by deleting ${dir}`, { cause: error });
  }
  return tokenizer;
}
