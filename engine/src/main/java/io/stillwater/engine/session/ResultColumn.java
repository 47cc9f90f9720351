package io.stillwater.engine.session;

import io.stillwater.engine.types.SqlType;

/** A column of a statement's result: its name as the client sees it and its type. */
public record ResultColumn(String name, SqlType type) {}
