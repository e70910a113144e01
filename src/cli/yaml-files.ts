/**
 * Files named .yaml or .yml hold YAML. basemodel reads items and its configuration as JSON (which
 * YAML includes): a YAML file that is not also JSON is called YAML, not broken JSON.
 */
export const isYamlFile = (path: string): boolean => /\.ya?ml$/i.test(path);
