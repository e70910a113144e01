import { postgresTemplateUrl } from "../../../support/requirements.js";
import { freshDatabases } from "../../../support/services.js";
import { describeStoreContract } from "./store-contract.js";

const template = postgresTemplateUrl();

describeStoreContract("PostGIS", template === undefined ? undefined : async () => (await freshDatabases(template)()).url);
