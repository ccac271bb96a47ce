"""Use cases that combine the library's parts into what a person does: one module or package each."""
