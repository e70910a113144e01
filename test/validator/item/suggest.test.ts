import { describe, expect, it } from "vitest";
import { closest } from "../../../src/diagnostics/suggest.js";

describe("closest(): the suggestion behind 'did you mean'", () => {
  it("prefers a candidate equal but for letter case, wherever it is listed", () => {
    expect(closest("pytorch", ["TensorFlow", "PyTorch"])).toBe("PyTorch");
    expect(closest("onnx", ["onnx2", "ONNX"])).toBe("ONNX");
  });

  it("finds typos, transpositions included, within a third of the word", () => {
    expect(closest("segmantation", ["classification", "segmentation", "detection"])).toBe("segmentation");
    expect(closest("Tensrofolw", ["PyTorch", "TensorFlow"])).toBe("TensorFlow"); // two swaps
    expect(closest("Tnsrflw", ["PyTorch", "TensorFlow"])).toBeUndefined(); // 3 edits in a 7-letter word: too far
    expect(closest("TesnorFlow", ["PyTorch", "TensorFlow"])).toBe("TensorFlow");
    expect(closest("fair:metric_spec", ["fair:metrics_spec", "fair:split_spec"])).toBe("fair:metrics_spec");
  });

  it("suggests nothing for an unrelated word, an empty list or a huge input", () => {
    expect(closest("fair:hyperparameters_spec", ["fair:metrics_spec", "fair:split_spec"])).toBeUndefined();
    expect(closest("banana", [])).toBeUndefined();
    expect(closest("x".repeat(10_000), ["x"])).toBeUndefined();
  });

  it("honours an explicit maximum distance and picks the nearest of several", () => {
    const url = "https://example.org/v1.0.0/schema.json";
    expect(closest("https://example.org/v1.0.1/schema.json", [url], 3)).toBe(url);
    expect(closest("https://example.org/v2.1.1/schema.jsn", [url], 3)).toBeUndefined();
    expect(closest("colour", ["color", "colours", "collar"])).toBe("color");
  });
});
