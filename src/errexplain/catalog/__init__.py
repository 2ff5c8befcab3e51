"""The catalog beside the core: the one YAML reader (`yamlio`), validation into entries
(`load`), where catalogs and caches are (`locate`), the binary index format (`index`, private
to this package), the in-memory view (`memory`), the index cache (`store`) and the integrity
checks (`integrity`). Everything else sees a catalog as a `models.CatalogView`."""
