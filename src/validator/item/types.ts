/**
 * A base model item as the schema (default prefix fair:) describes it. The build checks these
 * types against schema/base-model-item.schema.json (src/validator/item/types.check.ts): if the two drift
 * apart, `npm run build` fails.
 */

export type MlmTask = "semantic-segmentation" | "instance-segmentation" | "object-detection" | "classification";
export type MlmFramework = "PyTorch" | "TensorFlow";
export type ItemLicense = "AGPL-3.0-only" | "MIT" | "Apache-2.0" | "BSD-3-Clause";
export type ArtifactType =
  | "torch.save"
  | "torch.jit.save"
  | "torch.export.save"
  | "onnx"
  | "pickle"
  | "tf.keras.Model.save"
  | "tf.keras.Model.save_weights"
  | "tf.keras.Model.export";

/** Members the spec does not name are allowed with any value. */
interface Open {
  [member: string]: unknown;
}

export interface ProcessingFunction extends Open {
  format: string;
  expression: unknown;
}

export interface ModelInput extends Open {
  pre_processing_function: ProcessingFunction;
}

export interface ClassificationClass extends Open {
  name: string;
}

export interface ModelOutput extends Open {
  post_processing_function: ProcessingFunction;
  "classification:classes": ClassificationClass[];
}

export interface MetricSpec extends Open {
  /** Not empty. */
  name: string;
}

export interface SplitSpec extends Open {
  /** Not empty. */
  strategy: string;
  /** Strictly between 0 and 1. */
  default_ratio: number;
  /** An integer. */
  seed: number;
  description: string;
}

export interface BaseModelProperties extends Open {
  title: string;
  description: string;
  "mlm:name": string;
  "mlm:architecture": string;
  /** At least one. */
  "mlm:tasks": MlmTask[];
  "mlm:framework": MlmFramework;
  "mlm:framework_version": string;
  "mlm:pretrained": boolean;
  "mlm:pretrained_source"?: string | null;
  /** At least one. */
  "mlm:input": ModelInput[];
  /** At least one. */
  "mlm:output": ModelOutput[];
  "mlm:hyperparameters": Open;
  /** At least one. */
  keywords: string[];
  version: string;
  license: ItemLicense;
  /** At least one. */
  "fair:metrics_spec": MetricSpec[];
  "fair:split_spec": SplitSpec;
}

export interface Asset extends Open {
  /** Not empty. */
  href: string;
}

export interface ModelAsset extends Asset {
  "mlm:artifact_type"?: ArtifactType;
}

export interface SourceCodeAsset extends Asset {
  /** Not empty. */
  "mlm:entrypoint"?: string;
}

export interface BaseModelAssets extends Open {
  model: ModelAsset;
  "source-code": SourceCodeAsset;
  "mlm:training": Asset;
  "mlm:inference": Asset;
}

export interface BaseModelItem extends Open {
  type: "Feature";
  /** Holds the base model schema identifier; the spec says nothing of the other entries. */
  stac_extensions: unknown[];
  properties: BaseModelProperties;
  assets: BaseModelAssets;
}
