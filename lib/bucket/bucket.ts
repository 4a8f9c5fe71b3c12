// placeholder: replaced by the real double
export interface BucketOptions { compatibilityDate?: string; compatibilityFlags?: string[]; defaultStorageClass?: string; clock?: () => number }
export class Bucket { constructor(readonly options: BucketOptions = {}) {} }
