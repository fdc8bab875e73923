package handlerstest

import (
	"testing"

	"oware/models"
	"oware/models/modelstest"
)

func ModelsOpenSQLite(t *testing.T) *models.DB { return modelstest.Open(t, models.SQLite) }
