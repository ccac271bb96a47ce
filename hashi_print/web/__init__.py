"""The web app served by `hashi-print serve`: pages, static files and a JSON API over the library."""
