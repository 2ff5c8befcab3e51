"""One module per command. Each reads its input, makes one library call, renders the result on
the streams it is given (:class:`~errexplain.app.context.Context`) and returns an exit code;
errors are raised as domain errors for the CLI's one boundary to print."""
