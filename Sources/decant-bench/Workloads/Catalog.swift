/// Every workload, in the order they run and print.
enum Catalog {
    /// All workloads.
    static var all: [Workload] {
        JSONWorkloads.all + DecodableWorkloads.all + RegistryWorkloads.all + StringWorkloads.all
            + PropertyListWorkloads.all + XMLWorkloads.all + ImageWorkloads.all + MemoryWorkloads.all
            + HostileWorkloads.all + ConcurrencyWorkloads.all + PluginWorkloads.all + FormEncodingWorkloads.all
            + StreamingWorkloads.all
    }
}
