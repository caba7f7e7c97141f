/** Types of the generated standalone validator (validate-config.generated.js). */
export interface ConfigSchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  propertyName?: string;
}

export interface ConfigValidator {
  (data: unknown): boolean;
  errors?: ConfigSchemaError[] | null;
}

export declare const validate: ConfigValidator;
export default validate;
