"""The app's pages: each a script run by app.py's navigation; a module beside a page,
``X_views.py``, holds the sections page ``X.py`` draws, imported as ``pages.<group>.X_views``."""
