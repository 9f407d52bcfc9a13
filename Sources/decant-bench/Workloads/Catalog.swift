/// Every workload, in the order they run and print.
enum Catalog {
    /// All workloads.
    static var all: [Workload] {
        JSONWorkloads.all + DecodableWorkloads.all + EncodingWorkloads.all + RegistryWorkloads.all + StringWorkloads.all
            + TextEncodeWorkloads.all
            + PropertyListWorkloads.all + XMLWorkloads.all + ImageWorkloads.all + MemoryWorkloads.all
            + CompressionWorkloads.all + HostileWorkloads.all + ConcurrencyWorkloads.all + PluginWorkloads.all
            + FormEncodingWorkloads.all + CSVEncodingWorkloads.all
            + StreamingWorkloads.all + MultipartUploadWorkloads.all + ArchiveWorkloads.all
    }
}
